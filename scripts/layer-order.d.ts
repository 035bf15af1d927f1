// Types of layer-order.js (plain JavaScript so that ESLint loads it without a TypeScript loader).
import type { ESLint } from "eslint";

export declare const LAYER_ORDER: readonly (readonly string[])[];
export declare const LIBRARIES: Readonly<Record<string, readonly string[]>>;
export declare const ENTRY_FILES: readonly string[];
export declare const SANDBOX_ENTRIES: readonly string[];
export declare function wingOf(file: string): string;
export declare function importProblem(from: string, to: string): string | undefined;
export declare function resolveImport(root: string, from: string, specifier: string): string;
export declare const layersPlugin: ESLint.Plugin;
