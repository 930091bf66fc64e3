/** Landing page until the case queue and viewer arrive: says the server runs and where its API lives. */
export function App() {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 640, margin: '4rem auto', lineHeight: 1.5 }}>
      <h1>Obscura</h1>
      <p>The redaction workstation is running on this computer.</p>
      <p>
        Integrations use the key-authenticated API under <code>/api/v1</code>; its OpenAPI description is at{' '}
        <code>/api/v1/openapi.json</code> (send your <code>x-api-key</code>).
      </p>
    </main>
  );
}
