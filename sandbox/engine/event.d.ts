import type { QuickJSContext } from "quickjs-emscripten-core";
import type { GuestContext } from "./slot.ts";
type CallResult = ReturnType<QuickJSContext["callFunction"]>;
interface LargeString {
    readonly path: readonly string[];
    readonly value: string;
}
/** Copy the event into the guest as a value; runs guest-side parsing, so call it inside a guard slice. */
export declare function eventIntoGuest(context: QuickJSContext, guest: GuestContext, event: unknown): CallResult;
/**
 * The event's JSON with its large strings taken out (replaced by null), and where they go.
 * Small events, by far the most common, are stringified once and not walked.
 */
export declare function splitEvent(event: unknown): {
    json: string;
    large: LargeString[];
};
export {};
