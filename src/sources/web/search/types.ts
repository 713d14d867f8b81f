/** What every web.search backend hands back before positions are given: results in the backend's own order. */
export interface Hit {
  url: string;
  title: string;
  snippet?: string;
  publishedAt?: string;
  language?: string;
  thumbnail?: string;
  engines?: string[];
}

export interface Found {
  hits: Hit[];
  suggestions?: string[];
  corrections?: string[];
}
