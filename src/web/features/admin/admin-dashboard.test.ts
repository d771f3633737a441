import { describe, expect, it } from 'vitest';
import { formatRevenue, recentUsers, revenueNote } from './admin-dashboard';

describe('admin dashboard figures', () => {
  it('shows platform revenue in dollars with two decimals', () => {
    expect(formatRevenue(1234.5)).toBe('$1,234.50');
    expect(formatRevenue(0)).toBe('$0.00');
    expect(formatRevenue(undefined)).toBe('$0.00');
  });

  it('lists the first five users as recent users', () => {
    const users = Array.from({ length: 8 }, (_, index) => ({
      id: String(index),
      email: `u${index}@example.com`,
      userType: 'user',
      createdAt: '2026-01-01T00:00:00Z',
    }));
    expect(recentUsers(users as never).map((user) => user.id)).toEqual(['0', '1', '2', '3', '4']);
    expect(recentUsers(undefined)).toEqual([]);
  });

  it('says what platform revenue is made of, and that test sales are not revenue', () => {
    const base = { totalUsers: 1, activePackages: 1, platformRevenue: 0, totalSales: 1 };
    expect(revenueNote({ ...base, billingOff: true, revenueNote: 'Billing is off', testFeesCents: 100 })).toBe(
      'Billing is off. Test sales: $1.00 in fees, not collected.',
    );
    expect(revenueNote({ ...base, billingOff: false, feesCents: 150, invoicesCents: 4900 })).toBe(
      'Sale fees $1.50 · plan invoices $49.00',
    );
    expect(revenueNote(base)).toBeUndefined();
  });
});
