import { randomUUID } from 'node:crypto';
import os from 'node:os';

// Who holds a lease or a runner lock: `host/pid/nonce`. The nonce tells this process from an earlier one
// that had the same pid (a restarted container is pid 1 again).

const HOST = os.hostname();
const IDENTITY = `${HOST}/${process.pid}/${randomUUID().slice(0, 8)}`;

/** This process's lease owner name. */
export function processIdentity(): string {
  return IDENTITY;
}

/** Who claims, and for how long the lease holds before it must be renewed (config `leases.seconds`). */
export interface LeaseTerms {
  owner: string;
  seconds: number;
}

/** The lease of this process when a caller names none (tests, one-off calls). */
export const DEFAULT_LEASE: LeaseTerms = { owner: processIdentity(), seconds: 30 };

/** Leases run on the machine's real time, not a service clock (tests move theirs): they measure liveness. */
export function leaseExpiry(seconds: number): string {
  return new Date(Date.now() + seconds * 1000).toISOString();
}

/** A lease as a claiming query writes it. */
export interface LeaseValues {
  owner: string;
  expiresAt: string;
  now: string;
}

/**
 * True when the owner was a process on this machine that no longer runs: its leases need not be waited
 * out. An owner on another host, or a live pid (perhaps reused), is not judged here; its lease expires.
 */
export function ownerIsGone(owner: string | null): boolean {
  if (owner === null || owner === IDENTITY) return false;
  const parts = owner.split('/');
  if (parts.length < 3) return false;
  const pid = Number(parts.at(-2));
  const host = parts.slice(0, -2).join('/');
  if (host !== HOST || !Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true; // same pid, another nonce: an earlier incarnation of this process
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Whether a lease held by `owner` until `expiresAt` may be taken back at `now`. */
export function leaseLapsed(owner: string | null, expiresAt: string | Date | null, now: Date): boolean {
  if (expiresAt === null) return true; // running before leases existed (migration 17): the old single-process rule
  return new Date(expiresAt).getTime() <= now.getTime() || ownerIsGone(owner);
}
