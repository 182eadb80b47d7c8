export { QUEUE } from "./queues";
export { sendJob, sendJobs, stopSender } from "./send-job";
