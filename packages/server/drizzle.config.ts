import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: [
    './src/db/schema.ts',
    './src/db/schema-clusters.ts',
    './src/db/schema-activities.ts',
    './src/db/schema-reports.ts',
    './src/db/schema-inventory.ts',
  ],
  out: './drizzle',
});
