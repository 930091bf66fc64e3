import { useCallback, useEffect, useRef, useState } from 'react';
import { getJob, isFinished } from '../api/jobs.js';
import type { Job } from '../api/types.js';

export const JOB_POLL_MS = 1000;

export interface JobTracker {
  /** Every job seen, by id. */
  jobs: ReadonlyMap<string, Job>;
  track(job: Job): void;
  /** The most recent job of a kind on a document. */
  latest(documentId: string, kind: Job['kind']): Job | undefined;
}

/**
 * Live progress of processing jobs: every unfinished job is polled with GET /api/v1/jobs/{id} once a second
 * until it completes or fails. `onFinished` runs once per job that finishes while watched.
 */
export function useJobTracker(onFinished?: (job: Job) => void): JobTracker {
  const [jobs, setJobs] = useState<ReadonlyMap<string, Job>>(new Map());
  const finishedRef = useRef(onFinished);
  finishedRef.current = onFinished;
  const jobsRef = useRef(jobs);
  jobsRef.current = jobs;

  const track = useCallback((job: Job) => {
    setJobs((previous) => new Map(previous).set(job.id, job));
  }, []);

  const hasRunning = [...jobs.values()].some((job) => !isFinished(job));
  useEffect(() => {
    if (!hasRunning) return;
    const controller = new AbortController();
    const timer = window.setInterval(() => {
      const running = [...jobsRef.current.values()].filter((job) => !isFinished(job));
      for (const job of running) {
        getJob(job.id, controller.signal).then(
          (fresh) => {
            if (controller.signal.aborted) return;
            setJobs((previous) => new Map(previous).set(fresh.id, fresh));
            if (isFinished(fresh)) finishedRef.current?.(fresh);
          },
          // A failed poll is retried on the next tick; the job itself is unaffected.
          () => undefined,
        );
      }
    }, JOB_POLL_MS);
    return () => {
      controller.abort();
      window.clearInterval(timer);
    };
  }, [hasRunning]);

  const latest = useCallback(
    (documentId: string, kind: Job['kind']) => {
      let found: Job | undefined;
      for (const job of jobs.values()) {
        if (job.document_id === documentId && job.kind === kind && (!found || Number(job.id) > Number(found.id))) found = job;
      }
      return found;
    },
    [jobs],
  );
  return { jobs, track, latest };
}
