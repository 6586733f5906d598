/** Where a worker tells of its rounds: a pause, a resume, a round that failed. */
export interface WorkerLogger {
  info(object: object, message?: string): void;
  warn(object: object, message?: string): void;
  error(object: object, message?: string): void;
}
