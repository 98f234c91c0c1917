# One image for the API, the worker and the one-shot setup; docker-compose.yml picks the command.
FROM node:20.19-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-fund --no-audit
COPY tsconfig.json ./
COPY src ./src
COPY workflows ./workflows
COPY activities ./activities
COPY worker ./worker
COPY api ./api
COPY scripts ./scripts
# The workflow bundle, built once into the image: the worker finds it in .build/, stamped with its sources.
RUN npm run build:workflows
USER node
EXPOSE 8080
CMD ["npm", "run", "api"]
