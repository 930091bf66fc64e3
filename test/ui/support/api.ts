// Test-side HTTP client: sets up and checks state over the real API with a session Bearer token (the same
// session API the renderer uses), independent of the browser under test.
import { randomUUID } from 'node:crypto';

export interface ApiAnswer<T = Record<string, unknown>> {
  status: number;
  body: T;
}

export class ApiClient {
  private constructor(
    readonly baseUrl: string,
    private readonly token: string,
    readonly user: { id: string; username: string; display_name: string },
  ) {}

  static async signIn(baseUrl: string, username: string, password: string): Promise<ApiClient> {
    const response = await fetch(`${baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });
    const body = (await response.json()) as { token?: string; user?: { id: string; username: string; display_name: string } };
    if (response.status !== 200 || !body.token || !body.user) throw new Error(`sign-in of ${username} failed: ${response.status} ${JSON.stringify(body)}`);
    return new ApiClient(baseUrl, body.token, body.user);
  }

  async call<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<ApiAnswer<T>> {
    const mutating = method === 'POST' || method === 'PATCH' || method === 'PUT';
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(mutating && path.startsWith('/api/v1/') && { 'idempotency-key': randomUUID() }),
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
  }

  /** Like call, but fails the test unless the status is the expected one. */
  async expect<T = Record<string, unknown>>(status: number, method: string, path: string, body?: unknown): Promise<T> {
    const answer = await this.call<T>(method, path, body);
    if (answer.status !== status) throw new Error(`${method} ${path} answered ${answer.status}, expected ${status}: ${JSON.stringify(answer.body)}`);
    return answer.body;
  }

  async createCase(name: string, extra: Record<string, unknown> = {}): Promise<{ id: string; name: string }> {
    return (await this.expect<{ data: { id: string; name: string } }>(201, 'POST', '/api/v1/cases', { name, ...extra })).data;
  }

  /** Uploads files into a case through an upload session; returns the created documents. */
  async upload(caseId: string, files: { name: string; bytes: Buffer }[]): Promise<{ id: string; fileName: string }[]> {
    const session = (
      await this.expect<{ data: { id: string; files: { upload_url: string }[] } }>(201, 'POST', `/api/v1/cases/${caseId}/upload-sessions`, {
        files: files.map((file) => ({ name: file.name, size: file.bytes.length })),
      })
    ).data;
    for (const [index, file] of files.entries()) {
      const response = await fetch(session.files[index]!.upload_url, { method: 'PUT', body: new Uint8Array(file.bytes) });
      if (response.status !== 200) throw new Error(`PUT of ${file.name} answered ${response.status}: ${await response.text()}`);
    }
    const completed = await this.expect<{ data: { documents: { id: string; fileName: string }[] } }>(200, 'POST', `/api/v1/upload-sessions/${session.id}/complete`);
    return completed.data.documents;
  }
}
