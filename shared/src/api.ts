import { z } from 'zod';
import { companySchema } from './company.ts';
import { ENVIRONMENTS } from './rules.ts';

/** `GET /api/config`: what the SPA needs to draw itself for the signed-in user. */
export const appConfigSchema = z.object({
  environment: z.enum(ENVIRONMENTS),
  time_zone: z.string(),
  own_company_id: z.string(),
  companies: z.array(companySchema),
  statuses: z.array(z.string()),
  limits: z.object({ min: z.number().int(), max: z.number().int(), default: z.number().int() }),
  page_sizes: z.array(z.number().int()),
});
export type AppConfig = z.infer<typeof appConfigSchema>;

/** `POST /api/session` body. */
export const signInSchema = z.strictObject({
  username: z.string().min(1).max(128),
  password: z.string().min(1).max(1024),
});
export type SignIn = z.infer<typeof signInSchema>;

/** `GET /api/session`, and the answer to a successful sign-in. */
export const sessionSchema = z.object({
  username: z.string(),
  expires_at: z.string(),
});
export type Session = z.infer<typeof sessionSchema>;
