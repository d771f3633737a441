// The seat rule as other folders may use it (they reach this domain through its *.service.ts files only): the doors
// that create a holder's developer token (API v1, the portal) ask it and hand the limit to features/credentials.
export { seatLimitForHolder } from './seats.js';
