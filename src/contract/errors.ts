import { z } from 'zod';

/** Every non-2xx answer under /api. */
export const apiErrorSchema = z.object({
  error: z.string(),
  message: z.string(),
  suggestion: z.string().optional(),
  status: z.number().int(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;
