// src/core owns what every wing shares (errors, events, wire types, text, version, bounds); it must not import any other wing of src/.
// Below it only sandbox/ (its index) and package.json. Pure: no runtime APIs. Import its files directly: this index re-exports
// nothing, so that a lean path (emit) loads only what it uses.
export {};
