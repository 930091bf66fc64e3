import { createHash } from 'node:crypto';
import http from 'node:http';
import { Readable } from 'node:stream';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { z } from 'zod';
import { listAuditRecords } from '../../main/db/queries/audit-log.js';
import { listOutboxEvents } from '../../main/db/queries/outbox-events.js';
import type { Clock } from '../../main/services/context.js';
import type { TestInstance } from './instance.js';

// Typed readers for the integration API's envelopes, shared by the integration suites. Every reader
// checks the status first (printing the body when it differs) and that body and header request ids agree.

export type Response = LightMyRequestResponse;

const ErrorEnvelope = z.strictObject({
  error: z.looseObject({ code: z.string(), message: z.string().min(1), details: z.unknown().optional() }),
  request_id: z.string().min(1),
});
export type ApiError = z.infer<typeof ErrorEnvelope>['error'];

function parseBody(response: Response): unknown {
  return JSON.parse(response.body) as unknown;
}

function expectSameRequestId(response: Response, bodyRequestId: string): void {
  expect(response.headers['x-request-id']).toBe(bodyRequestId);
}

const SingleEnvelope = z.strictObject({ data: z.unknown(), request_id: z.string().min(1) });
const ListEnvelope = z.strictObject({ data: z.array(z.unknown()), cursor: z.string().nullable(), request_id: z.string().min(1) });

/** The `data` of a single-resource envelope, validated against a schema. */
export function dataOf<T extends z.ZodType>(response: Response, schema: T, status = 200): z.output<T> {
  expect(response.statusCode, response.body).toBe(status);
  const body = SingleEnvelope.parse(parseBody(response));
  expectSameRequestId(response, body.request_id);
  return schema.parse(body.data);
}

export interface Page<T> {
  data: T[];
  cursor: string | null;
}

/** The items and cursor of a list envelope, each item validated against a schema. */
export function pageOf<T extends z.ZodType>(response: Response, item: T): Page<z.output<T>> {
  expect(response.statusCode, response.body).toBe(200);
  const body = ListEnvelope.parse(parseBody(response));
  expectSameRequestId(response, body.request_id);
  return { data: body.data.map((entry) => item.parse(entry)), cursor: body.cursor };
}

/** Asserts the error envelope with the given status and code and returns its `error` object. */
export function errorOf(response: Response, status: number, code: string): ApiError {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const body = ErrorEnvelope.parse(parseBody(response));
  expectSameRequestId(response, body.request_id);
  expect(body.error.code).toBe(code);
  return body.error;
}

const FieldDetail = z.looseObject({ field: z.string(), message: z.string() });

/** The field names an error's `details` list (validation errors name each offending field). */
export function detailFields(error: ApiError): string[] {
  return z.array(FieldDetail).parse(error.details).map((detail) => detail.field);
}

/** The request id of any response, checked to be present in the header. */
export function requestIdOf(response: Response): string {
  const id = response.headers['x-request-id'];
  expect(typeof id).toBe('string');
  return String(id);
}

export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A clock the test moves by hand. */
export interface ManualClock extends Clock {
  advance(ms: number): void;
  set(iso: string): void;
}

export function manualClock(startIso = '2031-03-01T09:00:00.000Z'): ManualClock {
  let current = Date.parse(startIso);
  return {
    now: () => new Date(current),
    advance: (ms) => {
      current += ms;
    },
    set: (iso) => {
      current = Date.parse(iso);
    },
  };
}

/** The id of an organization created by startInstance, as a number (index 0 is the default key's). */
export function orgId(instance: TestInstance, index = 0): number {
  const org = instance.orgs[index];
  if (!org) throw new Error(`the instance has no organization #${index}`);
  return Number(org.organization_id);
}

export function keyOf(instance: TestInstance, index: number): string {
  const org = instance.orgs[index];
  if (!org) throw new Error(`the instance has no organization #${index}`);
  return org.api_key;
}

/** Audit records of one resource, oldest first. */
export async function auditOf(instance: TestInstance, resourceType: string, resourceId: string, organization = 0) {
  const rows = await listAuditRecords(instance.runtime.db, orgId(instance, organization));
  return rows.filter((row) => row.resource_type === resourceType && row.resource_id === resourceId);
}

const Payload = z.record(z.string(), z.unknown());

/** Outbox events of one resource, oldest first, with the payload parsed. */
export async function eventsOf(instance: TestInstance, resourceType: string, resourceId: string, organization = 0) {
  const rows = await listOutboxEvents(instance.runtime.db, orgId(instance, organization));
  return rows
    .filter((row) => row.resource_type === resourceType && row.resource_id === resourceId)
    .map((row) => ({ ...row, payload: Payload.parse(JSON.parse(row.payload)) }));
}

/** Row counts of the tables a request could change, to show that a refused request changed nothing. */
export async function tableCounts(instance: TestInstance): Promise<Record<string, number>> {
  const tables = ['cases', 'documents', 'upload_sessions', 'upload_files', 'download_tokens', 'audit_log', 'outbox_events', 'blobs'] as const;
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const row = await instance.runtime.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}

/** PUTs raw bytes to an upload URL through inject, with the server's Host header. */
export function putUpload(
  instance: TestInstance,
  uploadUrl: string,
  bytes: Buffer,
  options: { contentLength?: number | null; contentType?: string; stream?: boolean } = {},
): Promise<Response> {
  const headers: Record<string, string> = { host: instance.host, 'content-type': options.contentType ?? 'application/octet-stream' };
  if (typeof options.contentLength === 'number') headers['content-length'] = String(options.contentLength);
  // A stream payload carries no Content-Length, like a chunked upload from a real client.
  const payload = options.stream ? Readable.from([bytes]) : bytes;
  return instance.server.app.inject({ method: 'PUT', url: new URL(uploadUrl).pathname, headers, payload });
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A real HTTP request over TCP, body written chunk by chunk without Content-Length (chunked), the way a
 * streaming client sends; unlike inject it shows what a client sees when the server stops reading early.
 */
export function rawHttp(method: string, url: string, chunks: Buffer[], headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers }, (response) => {
      const parts: Buffer[] = [];
      response.on('data', (part: Buffer) => parts.push(part));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(parts).toString('utf8') }));
      response.on('error', reject);
    });
    request.on('error', reject);
    for (const chunk of chunks) request.write(chunk);
    request.end();
  });
}

/** GETs a capability URL (upload or download) through inject, with the server's Host header. */
export function getUrl(instance: TestInstance, url: string): Promise<Response> {
  return instance.server.app.inject({ method: 'GET', url: new URL(url).pathname, headers: { host: instance.host } });
}

// Tiny files that file-type recognises from their first bytes, built by hand so tests need no fixtures.

export function tinyPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    return Buffer.concat([length, Buffer.from(type, 'latin1'), data, Buffer.alloc(4)]);
  };
  const ihdr = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0]);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IEND', Buffer.alloc(0))]);
}

export function tinyJpeg(): Buffer {
  return Buffer.concat([
    Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
    Buffer.from('JFIF\0', 'latin1'),
    Buffer.from([1, 1, 0, 0, 1, 0, 1, 0, 0]),
    Buffer.from([0xff, 0xd9]),
  ]);
}

/** Little-endian TIFF with one IFD entry (ImageWidth = 1). */
export function tinyTiff(): Buffer {
  const bytes = Buffer.alloc(26);
  bytes.write('II', 0, 'latin1');
  bytes.writeUInt16LE(42, 2);
  bytes.writeUInt32LE(8, 4);
  bytes.writeUInt16LE(1, 8);
  bytes.writeUInt16LE(256, 10);
  bytes.writeUInt16LE(3, 12);
  bytes.writeUInt32LE(1, 14);
  bytes.writeUInt16LE(1, 18);
  bytes.writeUInt32LE(0, 22);
  return bytes;
}
