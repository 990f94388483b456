// The one Node API the worker uses (nodejs_compat provides it in workerd): AsyncLocalStorage, for the log's request id.
declare module "node:async_hooks" {
  export class AsyncLocalStorage<T> {
    run<R>(store: T, fn: () => R): R;
    getStore(): T | undefined;
  }
}
