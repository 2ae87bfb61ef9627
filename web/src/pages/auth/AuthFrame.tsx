import type { ReactNode } from 'react';

/** The centred card of the sign-in pages. */
export function AuthFrame({ title, children }: { title: string; children: ReactNode }) {
  document.title = `${title} — Fleet HOS`;
  return (
    <main id="main" className="auth">
      <div className="auth-card">
        <p className="brand">Fleet HOS</p>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}
