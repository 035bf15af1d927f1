/**
 * The file, process and network primitives the capabilities (src/capabilities) need, as the
 * runtime provides them. Owned by the capabilities work: every primitive a capability uses
 * to touch the world is declared here and implemented per runtime (node-capability-io.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface CapabilityIO {}
