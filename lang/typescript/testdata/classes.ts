@Injectable({ providedIn: "root" })
export abstract class Repository<T extends Entity> implements Store<T> {
  private readonly cache = new Map<string, T>();
  protected static count: number;

  constructor(private readonly http: Http, public name?: string) {
    super();
  }

  @Memoize()
  async find(id: string): Promise<T | undefined> {
    const hit = this.cache.get(id);
    if (hit !== undefined) return hit;
    const row = (await this.http.get(`/${this.name}/${id}`)) as T;
    this.cache.set(id, row!);
    return row;
  }

  abstract validate(item: T): boolean;

  get size(): number {
    return this.cache.size;
  }
}

function overload(x: string): string;
function overload(x: number): number;
function overload(x: any) {
  return x satisfies string | number;
}

export default function <T>(items: T[]): T[] {
  return items.filter((x): x is T => x != null);
}
