package fr.labri.hpccloud.starpu.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Loads the native half of the library: from {@code java.library.path} when it is there
 * (an installed {@code libstarpujni.so}), otherwise from the copy the jar carries under
 * {@code native/<os>-<arch>/}, extracted to a temporary file.
 */
final class Loader {
	static final String NAME = "starpujni";

	private Loader() {
	}

	static synchronized void load() {
		try {
			System.loadLibrary(NAME);
			return;
		} catch (UnsatisfiedLinkError notOnPath) {
			// Not installed: use the jar's copy.
		}
		String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
		String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
		String platform = (os.contains("linux") ? "linux" : os.replaceAll("\\s+", "")) + "-" + arch;
		String file = System.mapLibraryName(NAME);
		String resource = "/native/" + platform + "/" + file;
		try (InputStream in = Loader.class.getResourceAsStream(resource)) {
			if (in == null) {
				throw new UnsatisfiedLinkError("StarPU: no native library for " + platform
						+ " in the jar (" + resource + ") and none on java.library.path");
			}
			Path tmp = Files.createTempFile("libstarpujni-", ".so");
			tmp.toFile().deleteOnExit();
			Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
			System.load(tmp.toAbsolutePath().toString());
		} catch (IOException e) {
			throw new UnsatisfiedLinkError("StarPU: cannot extract " + resource + ": " + e);
		}
	}
}
