export { QUEUE } from "./queues";
export { sendJob, stopSender } from "./send-job";
