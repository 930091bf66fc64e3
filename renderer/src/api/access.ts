// Users, roles, service accounts and API keys (/api/v1, "Access" in docs/api.md).
import { listAll, request, type Single } from './http.js';
import type { ApiKey, IssuedApiKey, ServiceAccount } from '../../../main/common/schemas/credentials.js';
import type { Role } from '../../../main/common/schemas/roles.js';
import type { Invitation, User } from '../../../main/common/schemas/users.js';

export type { ApiKey, Invitation, IssuedApiKey, Role, ServiceAccount, User };

const id = (value: string) => encodeURIComponent(value);

export const listUsers = (signal?: AbortSignal) => listAll<User>('/api/v1/users', {}, signal);
export const listRoles = (signal?: AbortSignal) => listAll<Role>('/api/v1/roles', {}, signal);
export const listServiceAccounts = (signal?: AbortSignal) => listAll<ServiceAccount>('/api/v1/service-accounts', {}, signal);
export const listApiKeys = (signal?: AbortSignal) => listAll<ApiKey>('/api/v1/api-keys', {}, signal);

export async function createUser(body: { username: string; display_name: string; email?: string | null; password?: string }, key: string): Promise<User> {
  return (await request<Single<User>>('/api/v1/users', { method: 'POST', body, idempotencyKey: key })).data;
}

export async function setUserActive(userId: string, active: boolean, key: string): Promise<User> {
  return (await request<Single<User>>(`/api/v1/users/${id(userId)}/${active ? 'reactivate' : 'deactivate'}`, { method: 'POST', idempotencyKey: key })).data;
}

export async function inviteUser(userId: string, key: string): Promise<Invitation> {
  return (await request<Single<Invitation>>(`/api/v1/users/${id(userId)}/invitations`, { method: 'POST', idempotencyKey: key })).data;
}

export async function assignRole(userId: string, roleId: string, key: string): Promise<User> {
  return (await request<Single<User>>(`/api/v1/users/${id(userId)}/roles/${id(roleId)}`, { method: 'PUT', idempotencyKey: key })).data;
}

export async function removeRole(userId: string, roleId: string): Promise<void> {
  await request(`/api/v1/users/${id(userId)}/roles/${id(roleId)}`, { method: 'DELETE' });
}

export async function createRole(body: { name: string; description?: string; scopes: string[] }, key: string): Promise<Role> {
  return (await request<Single<Role>>('/api/v1/roles', { method: 'POST', body, idempotencyKey: key })).data;
}

export async function updateRole(roleId: string, body: { name?: string; description?: string; scopes?: string[] }, key: string): Promise<Role> {
  return (await request<Single<Role>>(`/api/v1/roles/${id(roleId)}`, { method: 'PATCH', body, idempotencyKey: key })).data;
}

export async function deleteRole(roleId: string): Promise<void> {
  await request(`/api/v1/roles/${id(roleId)}`, { method: 'DELETE' });
}

export async function createServiceAccount(body: { name: string; description?: string; max_scopes: string[] }, key: string): Promise<ServiceAccount> {
  return (await request<Single<ServiceAccount>>('/api/v1/service-accounts', { method: 'POST', body, idempotencyKey: key })).data;
}

export async function setServiceAccountActive(accountId: string, active: boolean, key: string): Promise<ServiceAccount> {
  return (await request<Single<ServiceAccount>>(`/api/v1/service-accounts/${id(accountId)}`, { method: 'PATCH', body: { active }, idempotencyKey: key })).data;
}

export async function issueApiKey(body: { service_account_id: string; name: string; scopes: string[]; expires_at?: string | null }, key: string): Promise<IssuedApiKey> {
  return (await request<Single<IssuedApiKey>>('/api/v1/api-keys', { method: 'POST', body, idempotencyKey: key })).data;
}

export async function rotateApiKey(keyId: string, key: string): Promise<IssuedApiKey> {
  return (await request<Single<IssuedApiKey>>(`/api/v1/api-keys/${id(keyId)}/rotate`, { method: 'POST', idempotencyKey: key })).data;
}

export async function revokeApiKey(keyId: string, key: string): Promise<ApiKey> {
  return (await request<Single<ApiKey>>(`/api/v1/api-keys/${id(keyId)}/revoke`, { method: 'POST', idempotencyKey: key })).data;
}
