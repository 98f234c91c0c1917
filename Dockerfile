# One image for the API, the worker and the one-shot setup; docker-compose.yml picks the command.
# Node 24, a long-term-support line (Node 20's support ended in April 2026); the code and its native
# modules also run on Node 20.19 and later, as the local stack may (package.json "engines").
FROM node:24.21-bookworm-slim
# Native tesseract reads scans about twice as fast as tesseract.js (docs/reading.md), which stays the fallback.
RUN apt-get update \
  && apt-get install -y --no-install-recommends tesseract-ocr tesseract-ocr-eng tesseract-ocr-spa \
  && rm -rf /var/lib/apt/lists/*
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
# What the API and the worker run from, built once into the image (.build/ is not writable by USER node):
# the workflow bundle, stamped with its sources, and the API, the worker and the pdf.js thread compiled to
# JavaScript (scripts/compile.ts), so that no process of the image transpiles or bundles at its start.
RUN npm run build
USER node
EXPOSE 8080
# node itself, not npm: no tsx, no npm process in between, and SIGTERM reaches the API.
CMD ["node", "--enable-source-maps", ".build/api.js"]
