import { useCan } from '../../session.js';
import { useState, type FormEvent } from 'react';
import { assignRole, createUser, inviteUser, listRoles, listUsers, removeRole, setUserActive, type Invitation, type Role, type User } from '../../api/access.js';
import { DataTable } from '../../components/DataTable.js';
import { SecretOnce } from '../../components/SecretOnce.js';
import { SettingsSection } from '../../components/SettingsSection.js';
import { TextField } from '../../components/TextField.js';
import { upsertById } from '../../domain/collections.js';
import { formatDateTime } from '../../domain/format.js';
import { useAction } from '../../hooks/useAction.js';
import { useLoad } from '../../hooks/useLoad.js';

export function UsersSection() {
  const users = useLoad((signal) => listUsers(signal), []);
  const roles = useLoad((signal) => listRoles(signal).catch((): Role[] => []), []);
  const action = useAction();
  const canWrite = useCan('users:write');
  const [invitation, setInvitation] = useState<{ user: User; invitation: Invitation } | null>(null);
  const [adding, setAdding] = useState(false);

  const replace = (updated: User | undefined) => {
    if (updated) users.setData((previous) => (previous ?? []).map((user) => (user.id === updated.id ? updated : user)));
  };

  // Shown at once; put back as it was if the server refuses.
  const toggleRole = async (user: User, role: Role, on: boolean) => {
    const roles = on ? [...user.roles, { id: role.id, name: role.name }] : user.roles.filter((entry) => entry.id !== role.id);
    replace({ ...user, roles, is_admin: role.name === 'admin' ? on : user.is_admin });
    const result = on
      ? await action.run(`assign:${user.id}:${role.id}`, (key) => assignRole(user.id, role.id, key))
      : await action.run(`remove:${user.id}:${role.id}`, async () => {
          await removeRole(user.id, role.id);
          return { ...user, roles, is_admin: role.name === 'admin' ? false : user.is_admin };
        });
    replace(result ?? user);
  };

  return (
    <SettingsSection
      titleId="users-title"
      title="Users"
      actions={
        canWrite && (
          <button type="button" className="button primary small" onClick={() => setAdding((open) => !open)} aria-expanded={adding}>
            Add user
          </button>
        )
      }
      loadError={users.error}
      onRetry={users.reload}
      action={action}
    >
      {adding && (
        <NewUserForm
          busy={action.busy === 'create-user'}
          onSubmit={async (body) => {
            const created = await action.run('create-user', (key) => createUser(body, key));
            if (created) {
              users.setData((previous) => upsertById(previous, created));
              setAdding(false);
            }
          }}
        />
      )}
      {invitation && (
        <SecretOnce
          label={`Invitation for ${invitation.user.display_name} (valid until ${formatDateTime(invitation.invitation.expires_at)}); they set a password with it at ${invitation.invitation.accept_path}`}
          secret={invitation.invitation.token}
          onDone={() => setInvitation(null)}
        />
      )}
      <DataTable
        label="Users"
        columns={['User', 'Roles', 'Status', 'Created', '']}
        rows={users.data}
        cells={(user) => (
          <>
            <td>
              <strong>{user.display_name}</strong>
              <div className="cell-sub">
                {user.username}
                {user.email && ` · ${user.email}`}
              </div>
            </td>
            <td>
              <div className="role-checks">
                {(roles.data ?? []).map((role) => (
                  <label key={role.id} className="check">
                    <input
                      type="checkbox"
                      checked={user.roles.some((entry) => entry.id === role.id)}
                      disabled={action.busy !== null}
                      onChange={(event) => void toggleRole(user, role, event.target.checked)}
                    />
                    {role.name}
                  </label>
                ))}
              </div>
            </td>
            <td>{user.active ? (user.has_password ? 'Active' : 'Invited') : 'Deactivated'}</td>
            <td className="muted">{formatDateTime(user.created_at)}</td>
            <td className="actions-cell">
              <button
                type="button"
                className="button tiny"
                disabled={!user.active}
                onClick={async () => {
                  const issued = await action.run(`invite:${user.id}`, (key) => inviteUser(user.id, key));
                  if (issued) setInvitation({ user, invitation: issued });
                }}
              >
                {user.has_password ? 'Reset password' : 'Invite'}
              </button>
              <button type="button" className="button tiny ghost" onClick={async () => replace(await action.run(`active:${user.id}`, (key) => setUserActive(user.id, !user.active, key)))}>
                {user.active ? 'Deactivate' : 'Reactivate'}
              </button>
            </td>
          </>
        )}
      />
    </SettingsSection>
  );
}

function NewUserForm({ busy, onSubmit }: { busy: boolean; onSubmit: (body: { username: string; display_name: string; email?: string | null; password?: string }) => Promise<void> }) {
  const [username, setUsername] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void onSubmit({ username: username.trim(), display_name: displayName.trim(), ...(email.trim() && { email: email.trim() }), ...(password && { password }) });
  };
  return (
    <form className="inline-form" onSubmit={submit} aria-label="New user">
      <TextField label="User name" value={username} onChange={setUsername} required maxLength={100} />
      <TextField label="Full name" value={displayName} onChange={setDisplayName} required maxLength={200} />
      <TextField label="Email (optional)" type="email" value={email} onChange={setEmail} />
      <TextField label="Password (optional, 12+ characters)" type="password" value={password} onChange={setPassword} minLength={12} autoComplete="new-password" />
      <button type="submit" className="button primary" disabled={busy}>
        {busy ? 'Adding…' : 'Add user'}
      </button>
    </form>
  );
}
