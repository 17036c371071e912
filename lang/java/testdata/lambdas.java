class Lambdas {
    void run(List<String> names, int limit) {
        names.forEach(n -> System.out.println(n + limit));
        Comparator<String> byLength = (a, b) -> Integer.compare(a.length(), b.length());
        Runnable task = () -> {
            int count = names.size();
            report(count);
        };
        names.stream()
            .filter(s -> s.length() > limit)
            .map((String s) -> {
                return s.trim();
            })
            .forEach(System.out::println);
        executor.submit(() -> { work(); });
    }
}
