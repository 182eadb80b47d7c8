export { QUEUE } from "./queues";
export { sendJob, sendJobs, stopSender } from "./send-job";
export { announceJobs, JOBS_SENT_CHANNEL } from "./job-wakeup";
