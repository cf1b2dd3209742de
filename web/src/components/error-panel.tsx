import type { ReactNode } from 'react';

export function ErrorPanel({
  title,
  message,
  children,
}: {
  title: string;
  message: string;
  children?: ReactNode;
}) {
  return (
    <div className="panel panel--error" role="alert">
      <h2 className="panel__title">{title}</h2>
      <p>{message}</p>
      {children}
    </div>
  );
}
