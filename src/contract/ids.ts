import { z } from 'zod';

// The one id schema: every row id is a uuid. Path parameters use it at the edge (the server answers a malformed one
// 404 Not Found, as it answers an unknown one); services that take ids from elsewhere check them with isEntityId
// before they reach PostgreSQL, which would reject the cast.
export const entityId = z.uuid();

export function isEntityId(value: string): boolean {
  return entityId.safeParse(value).success;
}
