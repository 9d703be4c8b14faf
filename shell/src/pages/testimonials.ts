/** Quotes for the sign-in frame (spec: Testimonial = text, url, img_url, handle). Fictional customers. */
export interface Testimonial {
  text: string;
  handle: string;
  url: string;
  img_url?: string;
}

export const TESTIMONIALS: readonly Testimonial[] = [
  {
    text: 'We moved three services onto one Postgres project in an afternoon. Being able to read the row-level security policies right next to the table they guard changed how our team reviews access.',
    handle: '@ines_writes_sql',
    url: 'https://social.example.com/@ines_writes_sql',
  },
  {
    text: 'The SQL editor with saved snippets replaced a folder of scripts nobody trusted. Sharing a query with the project is one click, and the read-only members can still run it safely.',
    handle: '@tobiasbuilds',
    url: 'https://social.example.com/@tobiasbuilds',
  },
  {
    text: 'Our on-call rotation lives in the logs explorer now. Edge logs and Postgres logs in one place, filtered by time, is exactly what you want at 3 a.m.',
    handle: '@priya_oncall',
    url: 'https://social.example.com/@priya_oncall',
  },
  {
    text: 'Buckets with real policies on storage objects meant we could drop our homegrown upload service. Fewer moving parts, and the dashboard makes the rules visible to everyone.',
    handle: '@kwame.dev',
    url: 'https://social.example.com/@kwame.dev',
  },
  {
    text: 'I hand this dashboard to new hires on day one. They can browse tables, try queries and see what a policy does without ever touching production credentials.',
    handle: '@lena_leads_data',
    url: 'https://social.example.com/@lena_leads_data',
  },
];

export function pickTestimonial(random: () => number = Math.random): Testimonial {
  const index = Math.min(TESTIMONIALS.length - 1, Math.floor(random() * TESTIMONIALS.length));
  return TESTIMONIALS[index]!;
}
