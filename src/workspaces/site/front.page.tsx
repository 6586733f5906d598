import { PANEL_PREFIX } from '../../panel-kit/layout.js';

/**
 * The server's front page (`/`): where staff sign in, where integrators read the API, and the
 * booking pages of the workspaces that take bookings. Before it, `/` answered a JSON 404.
 */
export function FrontPage({ bookingPages }: { bookingPages: { slug: string; name: string }[] }) {
  return (
    <>
      <h1>Kairos</h1>
      <p class="lead">Online booking on this server.</p>
      {bookingPages.length > 0 && (
        <section class="card" aria-labelledby="book">
          <h2 id="book">Book an appointment</h2>
          <ul>
            {bookingPages.map((page) => (
              <li>
                <a href={`/book/${page.slug}`}>{page.name}</a>
              </li>
            ))}
          </ul>
        </section>
      )}
      <section class="card" aria-labelledby="staff">
        <h2 id="staff">For the business</h2>
        <ul>
          <li>
            <a href={PANEL_PREFIX}>Sign in to the panel</a>: the calendar, bookings, customers and setup.
          </li>
          <li>
            <a href="/docs">API documentation</a>: the public API for integrations.
          </li>
        </ul>
      </section>
    </>
  );
}
