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
# What the worker runs from, built once into the image (.build/ is not writable by USER node): the workflow
# bundle, stamped with its sources, and the pdf.js thread compiled to JavaScript.
RUN npm run build
USER node
EXPOSE 8080
CMD ["npm", "run", "api"]
