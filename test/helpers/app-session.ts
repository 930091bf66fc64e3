import { randomUUID } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { insertUser } from '../../main/db/queries/users.js';
import type { Clock } from '../../main/services/context.js';
import { hashPassword } from '../../main/services/secrets.js';
import { createCase, uploadDocuments, type TestInstance } from './instance.js';

export interface AppClient {
  token: string;
  userId: string;
  request(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown): Promise<LightMyRequestResponse>;
}

/** Signs in through POST /api/auth/login and returns a client sending the Bearer token. */
export async function signIn(instance: TestInstance, username: string, password: string): Promise<AppClient> {
  const login = await instance.server.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: { host: instance.host, 'content-type': 'application/json' },
    payload: JSON.stringify({ username, password }),
  });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.statusCode} ${login.body}`);
  const body = login.json() as { token: string; user: { id: string } };
  return {
    token: body.token,
    userId: body.user.id,
    request(method, url, payload) {
      return instance.server.app.inject({
        method,
        url,
        headers: { host: instance.host, authorization: `Bearer ${body.token}`, ...(payload !== undefined && { 'content-type': 'application/json' }) },
        ...(payload !== undefined && { payload: JSON.stringify(payload) }),
      });
    },
  };
}

/** Signs in as the admin of organization `index` (0-based) created by startInstance. */
export function signInAdmin(instance: TestInstance, index = 0): Promise<AppClient> {
  const org = instance.orgs[index];
  if (!org) throw new Error(`no organization ${index}`);
  return signIn(instance, org.admin_username, org.admin_password);
}

let userCounter = 0;

/** Adds a non-admin user to an organization and signs in as them. */
export async function createUserAndSignIn(instance: TestInstance, index = 0, options: { admin?: boolean } = {}): Promise<AppClient> {
  const org = instance.orgs[index];
  if (!org) throw new Error(`no organization ${index}`);
  const username = `clerk-${process.pid}-${userCounter++}`;
  const password = 'correct horse battery staple';
  const now = new Date().toISOString();
  await insertUser(instance.runtime.db, {
    organization_id: Number(org.organization_id),
    username,
    display_name: `Clerk ${userCounter}`,
    email: null,
    password_hash: await hashPassword(password),
    is_admin: options.admin ? 1 : 0,
    active: 1,
    created_at: now,
    updated_at: now,
  });
  return signIn(instance, username, password);
}

// ---- Additions for the application API suites (auth, redactions, concurrency) ----

/** A clock the test moves by hand; pass it to startInstance({ clock }). */
export class ManualClock implements Clock {
  private current: number;
  constructor(start: Date = new Date()) {
    this.current = start.getTime();
  }
  now(): Date {
    return new Date(this.current);
  }
  advanceSeconds(seconds: number): void {
    this.current += seconds * 1000;
  }
}

/** POST /api/auth/login without any helper logic, for checking failures and the cookie. */
export function loginRaw(instance: TestInstance, username: string, password: string): Promise<LightMyRequestResponse> {
  return instance.server.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: { host: instance.host, 'content-type': 'application/json' },
    payload: JSON.stringify({ username, password }),
  });
}

/** A request to the application API authenticated by the session cookie only (extra headers: Origin etc.). */
export function cookieRequest(
  instance: TestInstance,
  token: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  return instance.server.app.inject({
    method,
    url,
    headers: {
      host: instance.host,
      cookie: `obscura_session=${token}`,
      ...(options.body !== undefined && { 'content-type': 'application/json' }),
      ...options.headers,
    },
    ...(options.body !== undefined && { payload: JSON.stringify(options.body) }),
  });
}

/** The typed JSON body of a response (tests name the fields they read). */
export function bodyOf<T>(response: LightMyRequestResponse): T {
  return response.json<T>();
}

/** The application API's error body: both `error` and `message` are strings. */
export interface AppError {
  success: false;
  error: string;
  message: string;
  code: string;
  details?: { field: string; message: string }[];
  currentVersion?: { version_id: string; version: number; layer: string } | null;
  locked_by?: string;
  expires_at?: string;
  locked_layers?: string[];
}

export interface SaveResult {
  success: boolean;
  message: string;
  count: number;
  version_id: string;
  version: number;
  layer: string;
}

/** A stored record as GET /api/redactions/{docId} returns it (PDF or image fields). */
export interface AppRecord {
  _id: string;
  doc_id: number;
  record_type: 'pdf' | 'image';
  redaction_id: string;
  page_number: number;
  redaction_type: string;
  layer: string;
  exemption: string;
  pdf_x1?: number;
  pdf_y1?: number;
  pdf_x2?: number;
  pdf_y2?: number;
  pdf_polygon_points?: { x: number; y: number }[];
  image_x1?: number;
  image_y1?: number;
  image_x2?: number;
  image_y2?: number;
  image_polygon_points?: { x: number; y: number }[];
  redaction_reason: string | null;
  classification_type: string | null;
  state: 'pending' | 'accepted' | 'rejected';
  pending_reason: Record<string, unknown> | null;
  version_id: string;
  created_at: string;
  created_by: string;
}

export interface ListResult {
  success: boolean;
  redactions: AppRecord[];
  count: number;
  allowedLayers: string[];
  version_ids: string[];
}

/** A valid PDF item for POST /api/redactions/{docId}; `extra` overrides any field. */
export function pdfItem(layer = 'B6', extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    redaction_id: randomUUID(),
    page_number: 1,
    redaction_type: 'rectangle',
    layer,
    redaction_reason: null,
    classification_type: layer === 'B1' ? 'secret' : null,
    pdf_x1: 10,
    pdf_y1: 20,
    pdf_x2: 110,
    pdf_y2: 60,
    pdf_polygon_points: [],
    ...extra,
  };
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed) >>> 0);
  return Buffer.concat([length, typed, crc]);
}

/** A real 2×2 RGB PNG, built by hand. */
export function tinyPng(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(2, 0);
  header.writeUInt32BE(2, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // colour type: RGB
  const rows = Buffer.from([0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 255, 255, 255]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Creates a case in organization `index` (via its API key) and uploads one file; returns the document id. */
export async function uploadOne(instance: TestInstance, file: { name: string; bytes: Buffer }, index = 0): Promise<string> {
  const key = instance.orgs[index]?.api_key;
  if (!key) throw new Error(`no organization ${index}`);
  const caseId = await createCase(instance, `Case ${file.name}`, key);
  const documents = await uploadDocuments(instance, caseId, [file], key);
  const id = documents[0]?.id;
  if (!id) throw new Error('upload returned no document');
  return id;
}
