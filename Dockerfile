# syntax=docker/dockerfile:1

# Build: every dependency, then the server (tsc) and the client (Vite) into dist/; then the dependencies
# the build alone needed are pruned, leaving the production ones for the runtime stage.
FROM node:24-slim AS build
WORKDIR /app
# patches/ holds fixes to dependencies that npm ci applies (postinstall: patch-package).
COPY package.json package-lock.json ./
COPY patches ./patches
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build
RUN npm prune --omit=dev --no-audit --no-fund

# Runtime: production dependencies and the build, nothing else.
FROM node:24-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY package.json package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The image's own non-root user owns the data directory, so a fresh volume is writable by it.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 3000
# No curl in the slim image: Node's own fetch asks the server whether it is healthy.
HEALTHCHECK --interval=30s --timeout=5s --start-period=15s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Exec form: Node is PID 1 and receives SIGTERM itself, so it closes the server and the database cleanly.
CMD ["node", "dist/server/main.js"]
