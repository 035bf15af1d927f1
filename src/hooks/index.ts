// src/hooks owns what hooks exist: config, registry, builtin, packages, check; it must not import src/decide or anything above it.
// config/ reads hook files and the operator file, registry/ loads and matches them, builtin/ is the standard library in the
// binary, packages/ installs, signs and locks them, check/ type-checks handlers. Import its files directly: this index
// re-exports nothing.
export {};
