import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { intoContract } from './contract-form';

const contract = z.object({
  name: z.string().min(1, 'name is required'),
  credentials: z.object({ password: z.string().min(1, 'credentials.password is required') }).optional(),
});
const form = z.object({ name: z.string(), password: z.string() }).transform(
  intoContract(contract, ({ name, password }) => ({ name: name.trim(), credentials: { password } }), {
    'credentials.password': 'password',
  }),
);

describe('intoContract', () => {
  it("sends the mapped values once the contract's schema accepts them", () => {
    expect(form.parse({ name: ' widget ', password: 'secret' })).toEqual({
      name: 'widget',
      credentials: { password: 'secret' },
    });
  });

  it("puts the contract's messages on the form's fields, a nested path on the field it comes from", () => {
    const issues = form.safeParse({ name: ' ', password: '' }).error?.issues ?? [];
    expect(issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['name', 'name is required'],
      ['password', 'credentials.password is required'],
    ]);
  });
});
