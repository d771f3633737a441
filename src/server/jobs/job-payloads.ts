import { z } from 'zod';
import type { AnyJobDefinition } from './job-definition.js';
import type { RunnableJob } from './job-runner-types.js';

// Payloads against their kind's schema (issue 29 item 5): checked when a job is queued (an invalid one throws and
// nothing is queued) and before each attempt (an invalid one fails the job for good, never reaching the handler).

/** What a payload that fails its kind's schema is told, in one line. */
export function invalidPayload(kind: string, error: z.ZodError): Error {
  return new Error(`The payload of the ${kind} job is not valid: ${z.prettifyError(error).replaceAll('\n', '; ')}`);
}

/** The payload as the kind's schema reads it (as stored when the kind has none); throws when it does not fit. */
export function checkedPayload(definition: RunnableJob | undefined, kind: string, payload: unknown) {
  const checked = readPayload(definition, payload);
  if (!checked.success) throw invalidPayload(kind, checked.error);
  return checked.data;
}

export function readPayload(
  definition: RunnableJob | undefined,
  payload: unknown,
): { success: true; data: Record<string, unknown> } | { success: false; error: z.ZodError } {
  const schema = definition?.payload;
  if (!schema) return { success: true, data: payload as Record<string, unknown> };
  return schema.safeParse(payload);
}

/** A registry definition bound to the app's context, as the runner runs it. */
export function bindDefinition<Deps>(definition: AnyJobDefinition<Deps>, deps: Deps): RunnableJob {
  const { handler, onGiveUp, kind: _kind, ...settings } = definition;
  return {
    ...settings,
    run: (payload, run) => handler(deps, payload, run),
    onGiveUp: onGiveUp && ((payload, error, job) => onGiveUp(deps, payload, error, job)),
  };
}
