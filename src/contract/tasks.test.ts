import { describe, expect, it } from 'vitest';
import { taskLabel } from './tasks';

describe('the words a screen shows for a task', () => {
  it('names a package sync after the code host that ran it', () => {
    expect(taskLabel({ type: 'github-sync', data: { codeHost: 'github' } })).toBe('GitHub Sync');
    expect(taskLabel({ type: 'github-sync', data: { codeHost: 'local' } })).toBe('Local Repository Sync');
  });
  it('does not claim GitHub for a sync recorded before the code host was', () => {
    expect(taskLabel({ type: 'github-sync', data: { packageId: 'x' } })).toBe('Repository Sync');
    expect(taskLabel({ type: 'github-sync' })).toBe('Repository Sync');
  });
  it('names the other tasks by their type', () => {
    expect(taskLabel({ type: 'cache-refresh' })).toBe('Cache Refresh');
    expect(taskLabel({ type: 'package-pre-cache' })).toBe('Package Pre-cache');
  });
});
