// src/notify owns notifications: a hook's hook.notify / then.notify and the moments of triggered
// runs, sent to the sinks the operator file names. It must not import src/dispatch or src/evaluator;
// its I/O comes in as NotifyIO (src/runtime).
export { MAX_MESSAGE_CHARS, sendNotification, type Delivery, type Notification } from "./send.ts";
