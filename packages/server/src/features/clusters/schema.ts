import { clusterSchema } from '@trasa/domain';
import type { z } from 'zod';

/** The body of POST /api/location and PATCH /api/location/:id (the domain's clusterSchema). */
export const clusterBody = clusterSchema;
export type ClusterInput = z.output<typeof clusterSchema>;
