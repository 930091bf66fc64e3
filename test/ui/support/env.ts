/** Environment variables through which the global setup hands the server to the tests. */
export const UI_ENV = {
  url: 'OBSCURA_UI_URL',
  username: 'OBSCURA_UI_USERNAME',
  password: 'OBSCURA_UI_PASSWORD',
  apiKey: 'OBSCURA_UI_API_KEY',
  dataDir: 'OBSCURA_UI_DATA_DIR',
} as const;

export interface UiServer {
  url: string;
  username: string;
  password: string;
  apiKey: string;
  dataDir: string;
}

export function uiServer(): UiServer {
  const read = (name: string) => {
    const value = process.env[name];
    if (!value) throw new Error(`${name} is not set: run the UI tests with \`npx playwright test\` (its global setup starts the server)`);
    return value;
  };
  return { url: read(UI_ENV.url), username: read(UI_ENV.username), password: read(UI_ENV.password), apiKey: read(UI_ENV.apiKey), dataDir: read(UI_ENV.dataDir) };
}
