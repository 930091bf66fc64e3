import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bodyOf,
  createUserAndSignIn,
  ManualClock,
  pdfItem,
  signInAdmin,
  uploadOne,
  type AppClient,
  type AppError,
  type ListResult,
  type SaveResult,
} from '../helpers/app-session.js';
import { startInstance, type TestInstance } from '../helpers/instance.js';
import { minimalPdf } from '../helpers/temp.js';

interface Outcome {
  status: number;
  body: Partial<SaveResult> & Partial<AppError>;
}

interface VersionList {
  versions: { version: number; version_id: string }[];
}

interface Snapshot {
  version: number;
  redactions: { redaction_id: string }[];
}

interface LockBody {
  success: boolean;
  lock: { layer: string; user_id: number; expires_at: string; timeout_seconds: number };
}

type Sender = (client: AppClient, docId: string, body: unknown) => Promise<Outcome>;

const viaInject: Sender = async (client, docId, body) => {
  const response = await client.request('POST', `/api/redactions/${docId}`, body);
  return { status: response.statusCode, body: bodyOf<Outcome['body']>(response) };
};

function viaFetch(instance: TestInstance): Sender {
  return async (client, docId, body) => {
    const response = await fetch(`${instance.baseUrl}/api/redactions/${docId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${client.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Outcome['body'] };
  };
}

describe('two sessions saving the same layer at the same moment', () => {
  let instance: TestInstance;
  let admin: AppClient;
  let clerk: AppClient;
  let adminAgain: AppClient;

  beforeAll(async () => {
    instance = await startInstance({ config: { rateLimits: { enabled: false } } });
    admin = await signInAdmin(instance);
    adminAgain = await signInAdmin(instance);
    clerk = await createUserAndSignIn(instance);
  });
  afterAll(() => instance.close());

  async function latestVersionId(docId: string, layer: string): Promise<string | null> {
    const response = await admin.request('GET', `/api/redactions/${docId}/layer/${layer}`);
    return bodyOf<{ version_id: string | null }>(response).version_id;
  }

  /**
   * Both clients save one new box each from the same base version, at once. Checks exactly one 201 and
   * one 409 naming the winner's version; returns the winner's and the loser's redaction ids.
   */
  async function race(send: Sender, docId: string, clients: [AppClient, AppClient], base: string | null) {
    const items = [pdfItem('B6'), pdfItem('B6')];
    const outcomes = await Promise.all(clients.map((client, index) => send(client, docId, { redactions: [items[index]], versionInfo: { versionId: base } })));
    const statuses = outcomes.map((outcome) => outcome.status).sort();
    expect(statuses).toEqual([201, 409]);
    const winnerIndex = outcomes.findIndex((outcome) => outcome.status === 201);
    const winner = outcomes[winnerIndex]!.body;
    const loser = outcomes[1 - winnerIndex]!.body;
    expect(winner.version_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(loser.code).toBe('conflict');
    expect(loser.currentVersion).toEqual({ version_id: winner.version_id, version: winner.version, layer: 'B6' });
    return { winnerId: String(items[winnerIndex]!.redaction_id), loserId: String(items[1 - winnerIndex]!.redaction_id), versionId: winner.version_id! };
  }

  /** Every version exists, and each snapshot holds exactly the winners up to that version. */
  async function checkHistory(docId: string, winners: string[], losers: string[]) {
    const versions = bodyOf<VersionList>(await admin.request('GET', `/api/redactions/${docId}/layer/B6/versions`)).versions;
    expect(versions.map((version) => version.version)).toEqual(winners.map((_, index) => index + 1));
    for (const [index, version] of versions.entries()) {
      const snapshot = bodyOf<Snapshot>(await admin.request('GET', `/api/redactions/${docId}/layer/B6/versions/${version.version_id}`));
      expect(snapshot.version).toBe(index + 1);
      expect(snapshot.redactions.map((record) => record.redaction_id).sort()).toEqual(winners.slice(0, index + 1).sort());
    }
    const list = bodyOf<ListResult>(await admin.request('GET', `/api/redactions/${docId}`));
    const stored = list.redactions.map((record) => record.redaction_id);
    expect(stored.sort()).toEqual([...winners].sort());
    for (const loser of losers) expect(stored).not.toContain(loser);
  }

  it('first save of a layer (no base version), two users: one 201, one 409 with currentVersion', async () => {
    const docId = await uploadOne(instance, { name: 'a.pdf', bytes: minimalPdf() });
    const { winnerId, loserId } = await race(viaInject, docId, [admin, clerk], null);
    await checkHistory(docId, [winnerId], [loserId]);
  });

  it('from the same base version, two users, repeated 20 times (inject): nothing lost from history', async () => {
    const docId = await uploadOne(instance, { name: 'b.pdf', bytes: minimalPdf() });
    const seed = pdfItem('B6');
    const first = bodyOf<SaveResult>(await admin.request('POST', `/api/redactions/${docId}`, { redactions: [seed] }));
    const winners = [String(seed.redaction_id)];
    const losers: string[] = [];
    let base: string | null = first.version_id;
    for (let round = 0; round < 20; round += 1) {
      const pair: [AppClient, AppClient] = round % 2 === 0 ? [admin, clerk] : [clerk, admin];
      const result = await race(viaInject, docId, pair, base);
      winners.push(result.winnerId);
      losers.push(result.loserId);
      base = result.versionId;
      expect(await latestVersionId(docId, 'B6')).toBe(base);
    }
    await checkHistory(docId, winners, losers);
  });

  it('the same user signed in twice, over real HTTP, repeated 20 times: nothing lost from history', async () => {
    const docId = await uploadOne(instance, { name: 'c.pdf', bytes: minimalPdf() });
    const send = viaFetch(instance);
    const winners: string[] = [];
    const losers: string[] = [];
    let base: string | null = null;
    for (let round = 0; round < 20; round += 1) {
      const result = await race(send, docId, [admin, adminAgain], base);
      winners.push(result.winnerId);
      losers.push(result.loserId);
      base = result.versionId;
    }
    await checkHistory(docId, winners, losers);
  });

  it('over real HTTP, two users on different layers at once both succeed', async () => {
    const docId = await uploadOne(instance, { name: 'd.pdf', bytes: minimalPdf() });
    const send = viaFetch(instance);
    const [b5, b6] = await Promise.all([
      send(admin, docId, { redactions: [pdfItem('B5')], versionInfo: { versionId: null } }),
      send(clerk, docId, { redactions: [pdfItem('B6')], versionInfo: { versionId: null } }),
    ]);
    expect([b5.status, b6.status]).toEqual([201, 201]);
    expect([b5.body.version, b6.body.version]).toEqual([1, 1]);
  });
});

describe('layer locks across both APIs', () => {
  const LOCK_TTL = 30;
  const clock = new ManualClock();
  let instance: TestInstance;
  let admin: AppClient;
  let clerk: AppClient;

  beforeAll(async () => {
    instance = await startInstance({ clock, config: { locks: { ttlSeconds: LOCK_TTL }, rateLimits: { enabled: false } } });
    admin = await signInAdmin(instance);
    clerk = await createUserAndSignIn(instance);
  });
  afterAll(() => instance.close());

  /** A document with one B5 box; returns its id and the integration id of the box. */
  async function documentWithBox(): Promise<{ docId: string; redactionId: string }> {
    const docId = await uploadOne(instance, { name: 'locked.pdf', bytes: minimalPdf() });
    const saved = await admin.request('POST', `/api/redactions/${docId}`, { redactions: [pdfItem('B5')] });
    expect(saved.statusCode).toBe(201);
    const record = bodyOf<ListResult>(await admin.request('GET', `/api/redactions/${docId}`)).redactions[0]!;
    return { docId, redactionId: record._id };
  }

  function patch(redactionId: string, reason: string) {
    return instance.request({ method: 'PATCH', url: `/api/v1/redactions/${redactionId}`, body: { reason } });
  }

  async function expectLocked(redactionId: string) {
    const response = await patch(redactionId, 'blocked?');
    expect(response.statusCode).toBe(423);
    const error = response.json<{ error: { code: string; message: string; locked_layers: string[] } }>().error;
    expect(error.code).toBe('locked');
    expect(error.locked_layers).toEqual(['B5']);
  }

  it('a lock taken through the app blocks PATCH /api/v1/redactions/{id} (423) until it times out', async () => {
    const { docId, redactionId } = await documentWithBox();
    const lock = await clerk.request('POST', `/api/redactions/${docId}/layer/B5/lock`);
    expect(lock.statusCode).toBe(200);
    const held = bodyOf<LockBody>(lock).lock;
    expect(held).toMatchObject({ layer: 'B5', user_id: Number(clerk.userId), timeout_seconds: LOCK_TTL });
    expect(Date.parse(held.expires_at) - clock.now().getTime()).toBe(LOCK_TTL * 1000);

    await expectLocked(redactionId);
    clock.advanceSeconds(LOCK_TTL - 1);
    await expectLocked(redactionId);
    clock.advanceSeconds(2);
    const after = await patch(redactionId, 'after timeout');
    expect(after.statusCode, after.body).toBe(200);
    expect(after.json<{ data: { reason: string } }>().data.reason).toBe('after timeout');
    // The holder's heartbeat now fails: the lock is gone.
    expect((await clerk.request('PUT', `/api/redactions/${docId}/layer/B5/lock`)).statusCode).toBe(409);
  });

  it('a heartbeat (PUT …/lock) extends the lock; a release (DELETE …/lock) frees it', async () => {
    const { docId, redactionId } = await documentWithBox();
    const taken = bodyOf<LockBody>(await clerk.request('POST', `/api/redactions/${docId}/layer/B5/lock`)).lock;
    clock.advanceSeconds(LOCK_TTL - 5);
    const beat = await clerk.request('PUT', `/api/redactions/${docId}/layer/B5/lock`);
    expect(beat.statusCode).toBe(200);
    const extended = bodyOf<LockBody>(beat).lock;
    expect(Date.parse(extended.expires_at)).toBe(Date.parse(taken.expires_at) + (LOCK_TTL - 5) * 1000);
    clock.advanceSeconds(10); // past the first expiry, within the extended one
    await expectLocked(redactionId);
    const save = await admin.request('POST', `/api/redactions/${docId}`, { redactions: [pdfItem('B5')], versionInfo: { versionId: null } });
    expect(save.statusCode).toBe(423);
    expect(bodyOf<AppError>(save).expires_at).toBe(extended.expires_at);

    // Someone else can neither take, heartbeat nor release it.
    expect((await admin.request('POST', `/api/redactions/${docId}/layer/B5/lock`)).statusCode).toBe(423);
    expect((await admin.request('PUT', `/api/redactions/${docId}/layer/B5/lock`)).statusCode).toBe(423);

    const released = await clerk.request('DELETE', `/api/redactions/${docId}/layer/B5/lock`);
    expect(released.statusCode).toBe(200);
    expect(bodyOf<{ released: boolean }>(released).released).toBe(true);
    const after = await patch(redactionId, 'after release');
    expect(after.statusCode, after.body).toBe(200);
    const relock = await admin.request('POST', `/api/redactions/${docId}/layer/B5/lock`);
    expect(relock.statusCode).toBe(200);
    expect(bodyOf<LockBody>(relock).lock.user_id).toBe(Number(admin.userId));
    expect((await admin.request('DELETE', `/api/redactions/${docId}/layer/B5/lock`)).statusCode).toBe(200);
  });

  it("the lock holder's own app saves go through while others are refused", async () => {
    const { docId, redactionId } = await documentWithBox();
    expect((await clerk.request('POST', `/api/redactions/${docId}/layer/B5/lock`)).statusCode).toBe(200);
    const layer = bodyOf<{ version_id: string }>(await clerk.request('GET', `/api/redactions/${docId}/layer/B5`));
    const own = await clerk.request('POST', `/api/redactions/${docId}`, { redactions: [pdfItem('B5')], versionInfo: { versionId: layer.version_id } });
    expect(own.statusCode).toBe(201);
    await expectLocked(redactionId);
    const remove = await instance.request({ method: 'DELETE', url: `/api/v1/redactions/${redactionId}` });
    expect(remove.statusCode).toBe(423);
    clock.advanceSeconds(LOCK_TTL + 1);
    expect((await patch(redactionId, 'free again')).statusCode).toBe(200);
  });
});
