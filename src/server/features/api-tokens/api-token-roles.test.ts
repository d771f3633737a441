import { describe, expect, it } from 'vitest';
import { apiPermissionsOfRole, apiPermissionsWithin } from './api-tokens.service.js';

// Issue 33: an API token does at most what its creator's current role allows.
describe('API token permissions within the creator’s role', () => {
  it('keeps a token whole while the role holds every API permission', () => {
    expect(apiPermissionsWithin(['*'], 'owner')).toEqual(['*']);
    expect(apiPermissionsWithin(['*'], 'developer')).toEqual(['*']);
    expect(apiPermissionsWithin(['customers:read'], 'admin')).toEqual(['customers:read']);
  });

  it('narrows full access to what a smaller role may do', () => {
    expect(apiPermissionsWithin(['*'], 'support')).toEqual(['packages:read', 'customers:read', 'customers:write']);
    expect(apiPermissionsWithin(['*'], 'viewer')).toEqual(['packages:read', 'analytics:read']);
    expect(apiPermissionsWithin(['customers:write', 'tokens:write'], 'support')).toEqual(['customers:write']);
  });

  it('gives nothing once the creator is no longer a member', () => {
    expect(apiPermissionsWithin(['*'], null)).toEqual([]);
    expect(apiPermissionsOfRole(null)).toEqual([]);
  });
});
