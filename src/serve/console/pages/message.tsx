/** @jsxImportSource hono/jsx */
import type { Child } from "hono/jsx";

/** A page outside the console's navigation: a refusal, the login step. */
export function MessagePage(props: { title: string; message: string; children?: Child; refreshTo?: string }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        {props.refreshTo ? <meta http-equiv="refresh" content={`0;url=${props.refreshTo}`} /> : null}
        <title>{props.title}</title>
        <link rel="stylesheet" href="/assets/console.css" />
      </head>
      <body>
        <main class="message">
          <h1>{props.title}</h1>
          <p>{props.message}</p>
          {props.children}
        </main>
      </body>
    </html>
  );
}
