package fr.labri.hpccloud.starpu;

import fr.labri.hpccloud.starpu.internal.Native;

/**
 * A scheduling context: a set of workers with its own policy
 * ({@link StarPU#createContext}). A task submitted to it ({@link Task#context}) runs on
 * one of its workers; the global context ({@link #GLOBAL}) holds every worker at start.
 */
public final class SchedContext {
	/** The context every worker starts in (StarPU's context 0). */
	public static final SchedContext GLOBAL = new SchedContext(0, "global");

	private final int id;
	private final String name;

	SchedContext(int id, String name) {
		this.id = id;
		this.name = name;
	}

	/** The runtime's id of the context. */
	public int getId() {
		return id;
	}

	public String getName() {
		return name;
	}

	/** Takes the workers out of the context (they stay in the others). */
	public void removeWorkers(int... workers) {
		Native.contextRemoveWorkers(id, workers);
	}

	/** Adds the workers to the context. */
	public void addWorkers(int... workers) {
		Native.contextAddWorkers(id, workers);
	}

	/** The context that gets this one's workers and waiting tasks when it is deleted. */
	public void setInheritor(SchedContext heir) {
		Native.contextSetInheritor(id, heir.id);
	}

	/** Deletes the context: its workers and waiting tasks go to its inheritor (or the global context). */
	public void delete() {
		Native.contextDelete(id);
	}

	@Override
	public String toString() {
		return "SchedContext " + name + " (" + id + ")";
	}
}
