import { existsSync } from 'node:fs';
import { loadEnvFile } from 'node:process';

/**
 * Loads `.env` from the working folder when there is one (a copy of .env.example), so that settings can live in a
 * file; variables already set in the environment win, as in every process manager's own env files.
 */
export function loadEnvFileIfPresent(file = '.env'): void {
  if (existsSync(file)) loadEnvFile(file);
}
