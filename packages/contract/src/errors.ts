import { z } from 'zod';

/** The one wire shape of every API error. */
export const ErrorBodySchema = z.object({ message: z.string() });
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
