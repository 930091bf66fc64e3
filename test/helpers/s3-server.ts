import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A small S3-compatible server for tests: path-style PUT/GET/HEAD/DELETE of objects and ListObjectsV2 of one
// bucket, in memory, on 127.0.0.1. Requests must carry a SigV4 Authorization header (not verified: the SDK
// under test signs, the server only checks that it did). aws-chunked bodies (streaming uploads) are decoded.

export interface StoredObject {
  body: Buffer;
  lastModified: Date;
}

export interface S3Server {
  url: string;
  objects: Map<string, StoredObject>;
  requests: { method: string; key: string }[];
  close(): Promise<void>;
}

/** Decodes `aws-chunked` content: `<hex size>[;chunk-signature=…]\r\n<bytes>\r\n` … `0\r\n<trailers>\r\n`. */
function decodeAwsChunked(raw: Buffer): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', offset);
    if (lineEnd < 0) throw new Error('truncated aws-chunked body');
    const size = Number.parseInt(raw.subarray(offset, lineEnd).toString('latin1').split(';')[0] ?? '', 16);
    if (!Number.isFinite(size)) throw new Error('bad aws-chunked size');
    if (size === 0) return Buffer.concat(parts);
    parts.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
    offset = lineEnd + 2 + size + 2;
  }
}

const xmlEscape = (text: string) => text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

export async function startS3Server(bucket: string): Promise<S3Server> {
  const objects = new Map<string, StoredObject>();
  const requests: { method: string; key: string }[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      const [, bucketName, ...rest] = url.pathname.split('/');
      const key = decodeURIComponent(rest.join('/'));
      requests.push({ method: request.method ?? '', key });
      if (!String(request.headers.authorization ?? '').startsWith('AWS4-HMAC-SHA256 ')) return void response.writeHead(403).end('unsigned');
      if (bucketName !== bucket) return void response.writeHead(404).end('<Error><Code>NoSuchBucket</Code></Error>');
      const raw = Buffer.concat(chunks);
      if (request.method === 'GET' && url.searchParams.get('list-type') === '2') {
        const prefix = url.searchParams.get('prefix') ?? '';
        const keys = [...objects.keys()].filter((name) => name.startsWith(prefix)).sort();
        const contents = keys
          .map((name) => `<Contents><Key>${xmlEscape(name)}</Key><LastModified>${objects.get(name)?.lastModified.toISOString()}</LastModified><Size>${objects.get(name)?.body.length}</Size></Contents>`)
          .join('');
        response.writeHead(200, { 'content-type': 'application/xml' });
        return void response.end(`<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>${bucket}</Name><Prefix>${xmlEscape(prefix)}</Prefix><KeyCount>${keys.length}</KeyCount><IsTruncated>false</IsTruncated>${contents}</ListBucketResult>`);
      }
      const stored = objects.get(key);
      switch (request.method) {
        case 'PUT': {
          const chunked = String(request.headers['content-encoding'] ?? '').includes('aws-chunked') || String(request.headers['x-amz-content-sha256'] ?? '').startsWith('STREAMING-');
          objects.set(key, { body: chunked ? decodeAwsChunked(raw) : raw, lastModified: new Date() });
          return void response.writeHead(200, { etag: '"x"' }).end();
        }
        case 'HEAD':
        case 'GET':
          if (!stored) return void response.writeHead(404, { 'content-type': 'application/xml' }).end(request.method === 'GET' ? '<Error><Code>NoSuchKey</Code></Error>' : undefined);
          response.writeHead(200, { 'content-length': String(stored.body.length), 'content-type': 'application/octet-stream', 'last-modified': stored.lastModified.toUTCString() });
          return void response.end(request.method === 'GET' ? stored.body : undefined);
        case 'DELETE':
          objects.delete(key);
          return void response.writeHead(204).end();
        default:
          return void response.writeHead(405).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    objects,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
