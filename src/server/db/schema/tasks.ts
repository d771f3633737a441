import { index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { belongsTo, timestamptzNow, uuidPrimaryKey } from './columns.js';
import { users } from './users.js';

// Tasks (features/tasks writes this): the progress a seller watches. Moved out of packages.ts without changing a
// column (issue 29 item 6).

/** Background work a user watches (package sync, pre-cache), mirrored to the realtime channel. */
export const tasks = pgTable(
  'tasks',
  {
    id: uuidPrimaryKey(),
    userId: belongsTo('user_id', () => users.id),
    type: text('type', {
      enum: ['cache-refresh', 'cache-clear', 'package-pre-cache', 'github-sync', 'database-operation'],
    }).notNull(),
    status: text('status', { enum: ['started', 'progress', 'completed', 'failed'] }).notNull(),
    progress: integer('progress').notNull().default(0),
    message: text('message').notNull().default(''),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamptzNow('created_at'),
    updatedAt: timestamptzNow('updated_at'),
  },
  (table) => [index('tasks_user_idx').on(table.userId, table.createdAt)],
);
