import { describe, expect, it } from 'vitest';
import { isWhiteLabelHost } from './public-config';

describe('isWhiteLabelHost', () => {
  it('is false on the app host', () => {
    expect(isWhiteLabelHost('localhost:5000', '', 'http://localhost:5000')).toBe(false);
  });

  it('is true on any other host', () => {
    expect(isWhiteLabelHost('acme.composer.localhost:5000', '', 'http://localhost:5000')).toBe(true);
  });

  it('is true with ?whelabel=true on the app host', () => {
    expect(isWhiteLabelHost('localhost:5000', '?whelabel=true', 'http://localhost:5000')).toBe(true);
  });

  it('assumes the app host while the configuration is unknown', () => {
    expect(isWhiteLabelHost('anything', '', undefined)).toBe(false);
  });
});
