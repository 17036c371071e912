class TryCatch {
    String read(Path path) throws IOException {
        try {
            open(path);
        } catch (NoSuchFileException | AccessDeniedException e) {
            log(e);
            throw e;
        } catch (IOException e) {
            return null;
        } finally {
            close();
        }
        try (var in = Files.newInputStream(path);
             BufferedReader reader = wrap(in)) {
            return reader.readLine();
        }
        try (this.out) {
            out.flush();
        }
    }
}
