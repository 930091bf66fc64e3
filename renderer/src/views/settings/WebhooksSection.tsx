import { useState, type FormEvent } from 'react';
import {
  createEndpoint,
  deleteEndpoint,
  getDelivery,
  listDeliveries,
  listEndpoints,
  listEventTypes,
  replayDelivery,
  rotateEndpointSecret,
  setEndpointEnabled,
  type WebhookEndpoint,
  type WebhookEventType,
} from '../../api/webhooks.js';
import { DataTable } from '../../components/DataTable.js';
import { ErrorBanner } from '../../components/ErrorBanner.js';
import { SecretOnce } from '../../components/SecretOnce.js';
import { SettingsSection } from '../../components/SettingsSection.js';
import { TextField } from '../../components/TextField.js';
import { upsertById } from '../../domain/collections.js';
import { formatDateTime } from '../../domain/format.js';
import { useAction } from '../../hooks/useAction.js';
import { useLoad } from '../../hooks/useLoad.js';

/** Webhook endpoints: subscribe, pause, rotate the signing secret, delete; inspect and replay deliveries. */
export function WebhooksSection() {
  const endpoints = useLoad((signal) => listEndpoints(signal), []);
  const eventTypes = useLoad((signal) => listEventTypes(signal).catch((): WebhookEventType[] => []), []);
  const action = useAction();
  const [secret, setSecret] = useState<{ label: string; value: string } | null>(null);
  const [adding, setAdding] = useState(false);
  const [open, setOpen] = useState<string | null>(null);

  const put = (endpoint: WebhookEndpoint | undefined) => {
    if (endpoint) endpoints.setData((previous) => upsertById(previous, endpoint));
  };

  return (
    <SettingsSection
      titleId="webhooks-title"
      title="Webhooks"
      actions={
        <button type="button" className="button primary small" onClick={() => setAdding((value) => !value)} aria-expanded={adding}>
          Add endpoint
        </button>
      }
      loadError={endpoints.error}
      onRetry={endpoints.reload}
      action={action}
    >
      {secret && <SecretOnce label={secret.label} secret={secret.value} onDone={() => setSecret(null)} />}
      {adding && (
        <EndpointForm
          eventTypes={eventTypes.data ?? []}
          busy={action.busy === 'endpoint'}
          onSubmit={async (body) => {
            const created = await action.run('endpoint', (key) => createEndpoint(body, key));
            if (created) {
              put(created);
              setSecret({ label: `Signing secret of ${created.url}`, value: created.secret });
              setAdding(false);
            }
          }}
        />
      )}
      <DataTable
        label="Webhook endpoints"
        columns={['Endpoint', 'Events', 'State', '']}
        rows={endpoints.data}
        empty="No endpoints. Add one to send case, document, export, user and role events to another system."
        renderRow={(endpoint) => (
          <EndpointRow
            endpoint={endpoint}
            open={open === endpoint.id}
            onToggle={() => setOpen(open === endpoint.id ? null : endpoint.id)}
            onEnable={async () => put(await action.run(`enable:${endpoint.id}`, (key) => setEndpointEnabled(endpoint.id, !endpoint.enabled, key)))}
            onRotate={async () => {
              const rotated = await action.run(`rotate:${endpoint.id}`, (key) => rotateEndpointSecret(endpoint.id, key));
              if (rotated) {
                put(rotated);
                setSecret({ label: `New signing secret of ${rotated.url}`, value: rotated.secret });
              }
            }}
            onDelete={async () => {
              const done = await action.run(`delete:${endpoint.id}`, async () => {
                await deleteEndpoint(endpoint.id);
                return true;
              });
              if (done) endpoints.setData((previous) => (previous ?? []).filter((entry) => entry.id !== endpoint.id));
            }}
          />
        )}
      />
    </SettingsSection>
  );
}

interface RowProps {
  endpoint: WebhookEndpoint;
  open: boolean;
  onToggle: () => void;
  onEnable: () => void;
  onRotate: () => void;
  onDelete: () => void;
}

function EndpointRow({ endpoint, open, onToggle, onEnable, onRotate, onDelete }: RowProps) {
  const state = endpoint.enabled ? (endpoint.failing_since ? `Failing since ${formatDateTime(endpoint.failing_since)}` : 'Enabled') : `Disabled (${endpoint.disabled_reason ?? 'manual'})`;
  return (
    <>
      <tr>
        <td>
          <strong>{endpoint.url}</strong>
          {endpoint.description && <div className="cell-sub">{endpoint.description}</div>}
        </td>
        <td className="scopes-cell">{endpoint.event_types.join(', ')}</td>
        <td className={endpoint.failing_since || !endpoint.enabled ? 'error-text' : undefined}>{state}</td>
        <td className="actions-cell">
          <button type="button" className="button tiny" onClick={onToggle} aria-expanded={open}>
            Deliveries
          </button>
          <button type="button" className="button tiny" onClick={onEnable}>
            {endpoint.enabled ? 'Disable' : 'Enable'}
          </button>
          <button type="button" className="button tiny" onClick={onRotate}>
            Rotate secret
          </button>
          <button type="button" className="button tiny ghost" onClick={onDelete}>
            Delete
          </button>
        </td>
      </tr>
      {open && (
        <tr className="detail-row">
          <td colSpan={4}>
            <Deliveries endpointId={endpoint.id} />
          </td>
        </tr>
      )}
    </>
  );
}

function Deliveries({ endpointId }: { endpointId: string }) {
  const deliveries = useLoad((signal) => listDeliveries(endpointId, signal), [endpointId]);
  const [detail, setDetail] = useState<string | null>(null);
  const action = useAction();
  return (
    <div className="deliveries">
      <div className="section-header">
        <h3>Recent deliveries</h3>
        <button type="button" className="button tiny" onClick={deliveries.reload}>
          Refresh
        </button>
      </div>
      <ErrorBanner error={deliveries.error ?? action.error} onDismiss={action.clearError} />
      <DataTable
        label="Deliveries"
        className="compact"
        framed={false}
        columns={['Event', 'Status', { header: 'Attempts', className: 'num' }, 'Last answer', 'Created', '']}
        rows={deliveries.data}
        empty="Nothing sent yet."
        cells={(delivery) => (
          <>
            <td>{delivery.event_type}</td>
            <td className={delivery.status === 'failed' ? 'error-text' : undefined}>
              {delivery.status}
              {delivery.failure_reason && ` (${delivery.failure_reason.replaceAll('_', ' ')})`}
            </td>
            <td className="num">{delivery.attempt_count}</td>
            <td>{delivery.last_status_code ?? '—'}</td>
            <td className="muted">{formatDateTime(delivery.created_at)}</td>
            <td className="actions-cell">
              <button type="button" className="button tiny" onClick={() => setDetail(detail === delivery.id ? null : delivery.id)}>
                Details
              </button>
              <button
                type="button"
                className="button tiny"
                onClick={async () => {
                  if (await action.run(`replay:${delivery.id}`, (key) => replayDelivery(delivery.id, key))) deliveries.reload();
                }}
              >
                Replay
              </button>
            </td>
          </>
        )}
      />
      {detail && <DeliveryDetail deliveryId={detail} />}
    </div>
  );
}

function DeliveryDetail({ deliveryId }: { deliveryId: string }) {
  const delivery = useLoad((signal) => getDelivery(deliveryId, signal), [deliveryId]);
  if (delivery.error) return <ErrorBanner error={delivery.error} onRetry={delivery.reload} />;
  if (!delivery.data) return <p className="muted">Loading…</p>;
  return (
    <div className="delivery-detail">
      <h3>Attempts</h3>
      <ol>
        {delivery.data.attempts.map((attempt) => (
          <li key={attempt.number}>
            {formatDateTime(attempt.started_at)} · {attempt.outcome}
            {attempt.status_code !== null && ` · HTTP ${attempt.status_code}`}
            {attempt.duration_ms !== null && ` · ${attempt.duration_ms} ms`}
            {attempt.error && <span className="error-text"> · {attempt.error}</span>}
          </li>
        ))}
      </ol>
      <h3>Payload</h3>
      <pre className="ocr-text">{JSON.stringify(delivery.data.payload, null, 2)}</pre>
    </div>
  );
}

function EndpointForm({ eventTypes, busy, onSubmit }: { eventTypes: WebhookEventType[]; busy: boolean; onSubmit: (body: { url: string; description?: string; event_types: string[] }) => Promise<void> }) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>(['case.*', 'document.*', 'export.*']);
  const groups = [...new Set(eventTypes.map((type) => type.group))];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void onSubmit({ url: url.trim(), ...(description && { description }), event_types: events });
  };
  const toggle = (pattern: string, on: boolean) => setEvents(on ? [...events, pattern] : events.filter((entry) => entry !== pattern));
  return (
    <form className="inline-form column" onSubmit={submit} aria-label="New webhook endpoint">
      <div className="row">
        <TextField label="URL" grow type="url" value={url} onChange={setUrl} required placeholder="https://records.example.gov/hooks/obscura" />
        <TextField label="Description" grow value={description} onChange={setDescription} maxLength={1000} />
      </div>
      <fieldset>
        <legend>Events</legend>
        <div className="scope-grid">
          <label className="check">
            <input type="checkbox" checked={events.includes('*')} onChange={(event) => toggle('*', event.target.checked)} />
            Everything (*)
          </label>
          {groups.map((group) => (
            <label key={group} className="check" title={eventTypes.filter((type) => type.group === group).map((type) => type.type).join(', ')}>
              <input type="checkbox" checked={events.includes(`${group}.*`)} onChange={(event) => toggle(`${group}.*`, event.target.checked)} />
              {group}.*
            </label>
          ))}
        </div>
      </fieldset>
      <div className="row">
        <button type="submit" className="button primary" disabled={busy || events.length === 0}>
          {busy ? 'Adding…' : 'Add endpoint'}
        </button>
      </div>
    </form>
  );
}
