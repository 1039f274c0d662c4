# The production image of the Consign app, in the manner of Shopify's Remix app template: Node 22, `npm ci`,
# the build, and on start the database migrations, then the app. One image runs every role: the default
# command serves the app and runs its jobs (CONSIGN_ROLE=all); `CONSIGN_ROLE=web` serves only, and
# `npm run worker` as the command runs jobs only. See README, "Running in production".
FROM node:22-bookworm

WORKDIR /app
ENV NODE_ENV=production
EXPOSE 3000

# The whole tree first: npm ci's postinstall extracts the Admin schema and generates the Prisma clients from it.
COPY . .
# Dev dependencies build the app (Remix, Vite) and are pruned afterwards.
RUN npm ci --include=dev && npm run build && npm prune --omit=dev && npm cache clean --force

# Migrations (npm run db:migrate) are applied on every start, then the app starts; SIGTERM reaches Node
# through npm and stops the jobs gracefully.
CMD ["npm", "run", "docker-start"]
