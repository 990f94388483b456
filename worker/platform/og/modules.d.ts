// Non-code modules the worker bundles (wrangler.toml [[rules]]): compiled WebAssembly and font files as bytes.
declare module "*.wasm" {
  const module: WebAssembly.Module;
  export default module;
}
declare module "*.ttf" {
  const bytes: ArrayBuffer;
  export default bytes;
}
