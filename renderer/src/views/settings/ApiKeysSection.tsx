import { useState, type FormEvent } from 'react';
import {
  createServiceAccount,
  issueApiKey,
  listApiKeys,
  listServiceAccounts,
  revokeApiKey,
  rotateApiKey,
  setServiceAccountActive,
  type ApiKey,
  type IssuedApiKey,
  type ServiceAccount,
} from '../../api/access.js';
import { DataTable } from '../../components/DataTable.js';
import { ScopePicker } from '../../components/ScopePicker.js';
import { SecretOnce } from '../../components/SecretOnce.js';
import { SettingsSection } from '../../components/SettingsSection.js';
import { TextField } from '../../components/TextField.js';
import { upsertById } from '../../domain/collections.js';
import { formatDateTime } from '../../domain/format.js';
import { useAction } from '../../hooks/useAction.js';
import { useLoad } from '../../hooks/useLoad.js';

/** Service accounts (who integrations act as) and their API keys: issue, rotate, revoke. */
export function ApiKeysSection() {
  const accounts = useLoad((signal) => listServiceAccounts(signal), []);
  const keys = useLoad((signal) => listApiKeys(signal), []);
  const action = useAction();
  const [issued, setIssued] = useState<IssuedApiKey | null>(null);
  const [form, setForm] = useState<'account' | 'key' | null>(null);

  const putKey = (key: ApiKey | undefined) => {
    if (key) keys.setData((previous) => upsertById(previous, key));
  };
  const putAccount = (account: ServiceAccount | undefined) => {
    if (account) accounts.setData((previous) => upsertById(previous, account));
  };
  const accountName = (id: string) => accounts.data?.find((account) => account.id === id)?.name ?? `account ${id}`;

  return (
    <SettingsSection
      titleId="keys-title"
      title="API keys"
      actions={
        <>
          <button type="button" className="button small" onClick={() => setForm(form === 'account' ? null : 'account')}>
            New service account
          </button>
          <button type="button" className="button primary small" onClick={() => setForm(form === 'key' ? null : 'key')} disabled={!accounts.data?.length}>
            Issue key
          </button>
        </>
      }
      loadError={accounts.error ?? keys.error}
      onRetry={() => {
        accounts.reload();
        keys.reload();
      }}
      action={action}
    >
      {issued && <SecretOnce label={`Key “${issued.name}”`} secret={issued.secret} onDone={() => setIssued(null)} />}
      {form === 'account' && (
        <AccountForm
          busy={action.busy === 'account'}
          onSubmit={async (body) => {
            const created = await action.run('account', (key) => createServiceAccount(body, key));
            if (created) {
              putAccount(created);
              setForm(null);
            }
          }}
        />
      )}
      {form === 'key' && accounts.data && (
        <KeyForm
          accounts={accounts.data.filter((account) => account.active)}
          busy={action.busy === 'key'}
          onSubmit={async (body) => {
            const created = await action.run('key', (key) => issueApiKey(body, key));
            if (created) {
              putKey(created);
              setIssued(created);
              setForm(null);
            }
          }}
        />
      )}
      <h3>Service accounts</h3>
      <DataTable
        label="Service accounts"
        columns={['Account', 'Maximum scopes', 'Status', '']}
        rows={accounts.data}
        cells={(account) => (
          <>
            <td>
              <strong>{account.name}</strong>
              <div className="cell-sub">{account.description}</div>
            </td>
            <td className="scopes-cell">{account.max_scopes.join(', ')}</td>
            <td>{account.active ? 'Active' : 'Inactive'}</td>
            <td className="actions-cell">
              <button type="button" className="button tiny ghost" onClick={async () => putAccount(await action.run(`account-active:${account.id}`, (key) => setServiceAccountActive(account.id, !account.active, key)))}>
                {account.active ? 'Deactivate' : 'Activate'}
              </button>
            </td>
          </>
        )}
      />
      <h3>Keys</h3>
      <DataTable
        label="API keys"
        columns={['Key', 'Account', 'Scopes', 'Status', 'Expires', '']}
        rows={keys.data}
        cells={(key) => (
          <>
            <td>
              <strong>{key.name}</strong>
              <div className="cell-sub">
                <code>{key.prefix}</code>
              </div>
            </td>
            <td>{accountName(key.service_account_id)}</td>
            <td className="scopes-cell">{key.scopes.join(', ')}</td>
            <td>
              {key.status}
              {key.previous_secret_expires_at && <div className="cell-sub">old secret works until {formatDateTime(key.previous_secret_expires_at)}</div>}
            </td>
            <td className="muted">{key.expires_at ? formatDateTime(key.expires_at) : 'never'}</td>
            <td className="actions-cell">
              <button
                type="button"
                className="button tiny"
                disabled={key.status !== 'active'}
                onClick={async () => {
                  const rotated = await action.run(`rotate:${key.id}`, (idempotencyKey) => rotateApiKey(key.id, idempotencyKey));
                  if (rotated) {
                    putKey(rotated);
                    setIssued(rotated);
                  }
                }}
              >
                Rotate
              </button>
              <button type="button" className="button tiny ghost" disabled={key.status === 'revoked'} onClick={async () => putKey(await action.run(`revoke:${key.id}`, (idempotencyKey) => revokeApiKey(key.id, idempotencyKey)))}>
                Revoke
              </button>
            </td>
          </>
        )}
      />
    </SettingsSection>
  );
}

function AccountForm({ busy, onSubmit }: { busy: boolean; onSubmit: (body: { name: string; description: string; max_scopes: string[] }) => Promise<void> }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [scopes, setScopes] = useState<string[]>([]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void onSubmit({ name: name.trim(), description, max_scopes: scopes });
  };
  return (
    <form className="inline-form column" onSubmit={submit} aria-label="New service account">
      <div className="row">
        <TextField label="Name" value={name} onChange={setName} required maxLength={200} />
        <TextField label="Description" grow value={description} onChange={setDescription} maxLength={2000} />
      </div>
      <ScopePicker legend="Maximum scopes of its keys" value={scopes} onChange={setScopes} />
      <div className="row">
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? 'Creating…' : 'Create account'}
        </button>
      </div>
    </form>
  );
}

function KeyForm({ accounts, busy, onSubmit }: { accounts: ServiceAccount[]; busy: boolean; onSubmit: (body: { service_account_id: string; name: string; scopes: string[]; expires_at?: string | null }) => Promise<void> }) {
  const [accountId, setAccountId] = useState(accounts[0]?.id ?? '');
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>([]);
  const [expires, setExpires] = useState('');
  const account = accounts.find((entry) => entry.id === accountId);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void onSubmit({ service_account_id: accountId, name: name.trim(), scopes, ...(expires && { expires_at: new Date(`${expires}T23:59:59`).toISOString() }) });
  };
  return (
    <form className="inline-form column" onSubmit={submit} aria-label="Issue API key">
      <div className="row">
        <label className="field">
          <span>Service account</span>
          <select value={accountId} onChange={(event) => setAccountId(event.target.value)}>
            {accounts.map((entry) => (
              <option key={entry.id} value={entry.id}>
                {entry.name}
              </option>
            ))}
          </select>
        </label>
        <TextField label="Key name" grow value={name} onChange={setName} required maxLength={200} placeholder="e.g. Case management sync" />
        <TextField label="Expires (optional)" type="date" value={expires} onChange={setExpires} />
      </div>
      <ScopePicker legend="Scopes" value={scopes} onChange={setScopes} allowed={account?.max_scopes ?? []} />
      <div className="row">
        <button type="submit" className="button primary" disabled={busy || scopes.length === 0}>
          {busy ? 'Issuing…' : 'Issue key'}
        </button>
      </div>
    </form>
  );
}
