import { useState, type FormEvent } from 'react';
import { addComment, listComments } from '../../api/comments.js';
import { newIdempotencyKey } from '../../api/http.js';
import type { Document } from '../../api/types.js';
import { ErrorBanner } from '../../components/ErrorBanner.js';
import { formatDateTime } from '../../domain/format.js';
import { useLoad } from '../../hooks/useLoad.js';
import { useSessionUser } from '../../session.js';

/** Comments of one document; the draft survives a failed send. */
export function CommentsPanel({ document }: { document: Document | null }) {
  if (!document) {
    return (
      <div className="panel">
        <h2>Comments</h2>
        <p className="muted">Select a document to read and add comments.</p>
      </div>
    );
  }
  return <DocumentComments key={document.id} document={document} />;
}

function DocumentComments({ document }: { document: Document }) {
  const me = useSessionUser();
  const comments = useLoad((signal) => listComments(document.id, signal), [document.id]);
  const [text, setText] = useState('');
  const [key, setKey] = useState(newIdempotencyKey);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) return;
    setBusy(true);
    setError(null);
    try {
      const created = await addComment(document.id, text.trim(), key);
      comments.setData((previous) => [...(previous ?? []), created]);
      setText('');
      setKey(newIdempotencyKey());
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="panel comments">
      <h2>
        Comments <span className="muted">· {document.fileName}</span>
      </h2>
      <ErrorBanner error={comments.error} onRetry={comments.reload} />
      <ol className="comment-list" aria-label="Comments">
        {(comments.data ?? []).map((comment) => (
          <li key={comment.id}>
            <div className="comment-meta">
              {authorName(comment.author, me.id)} · {formatDateTime(comment.created_at)}
            </div>
            <div className="comment-text">{comment.text}</div>
          </li>
        ))}
        {comments.data?.length === 0 && <li className="muted">No comments yet.</li>}
      </ol>
      <form onSubmit={submit} className="comment-form">
        <label className="field">
          <span>Add a comment</span>
          <textarea
            value={text}
            rows={3}
            maxLength={10000}
            onChange={(event) => setText(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void submit(event);
            }}
          />
        </label>
        <ErrorBanner error={error} />
        <button type="submit" className="button primary small" disabled={busy || !text.trim()}>
          {busy ? 'Sending…' : error ? 'Send again' : 'Add comment'}
        </button>
      </form>
    </div>
  );
}

function authorName(author: { type: string; id: string }, myId: string): string {
  if (author.type === 'user') return author.id === myId ? 'You' : `User ${author.id}`;
  if (author.type === 'api_key') return `Integration (key ${author.id})`;
  return author.type;
}
