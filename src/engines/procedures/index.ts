// The procedure engine's public surface (style.md guideline 1): procedure code item data over the HCPCS file, the
// OPPS addendum and the NCCI and DMEPOS tables, as pure functions of the Reference port.
export { procedureItem, procedureItems, type ProceduresReference } from './procedure-items.js';
