//! StarPU-MPI in one process (MPI's singleton start, as `cargo test` runs it): transfers
//! to itself, task insertion where every datum is local, registration errors, shutdown.
//! The multi-process scenarios run under mpirun (tests/mpi/run.sh).

use starpu_core::{AccessMode, Codelet, Config};
use starpu_mpi::{StartOptions, Transfer};
use std::sync::Arc;

#[test]
fn one_process_talks_to_itself() -> starpu_core::Result<()> {
    let rt = starpu_core::Runtime::start(Config {
        ncpus: Some(1),
        silent: true,
        ..Config::default()
    })?;
    let mpi = starpu_mpi::init(rt.clone(), StartOptions::default())?;
    assert_eq!((mpi.world_rank(), mpi.world_size()), (0, 1));
    assert!(
        starpu_mpi::init(rt.clone(), StartOptions::default()).is_err(),
        "one StarPU-MPI per process"
    );

    // To itself: the receive may be posted before or after the send.
    let a = rt.register_vector(vec![1u32, 2, 3])?;
    let b = rt.register_vector(vec![0u32; 3])?;
    let t = Transfer::default();
    let r = mpi.irecv(&b, 0, 7, &t)?;
    mpi.send(&a, 0, 7, &t)?;
    assert_eq!(r.wait()?.size, 12);
    mpi.isend_detached(&a, 0, 8, &t, None)?;
    mpi.recv(&b, 0, 8, &t)?;
    mpi.barrier(mpi.world())?;

    // Everything is local: the task runs here, nothing moves.
    mpi.data_register(&a, 1, 0, mpi.world())?;
    mpi.data_register(&b, 2, 0, mpi.world())?;
    let e = mpi.data_register(&b, 1, 0, mpi.world()).unwrap_err();
    assert!(e.message.contains("already the tag"), "{e}");
    let e = mpi.data_register(&b, 3, 1, mpi.world()).unwrap_err();
    assert!(e.message.contains("owner rank 1 does not exist"), "{e}");
    assert_eq!((mpi.data_rank(&b), mpi.data_tag(&b)), (Some(0), Some(2)));
    let add = Arc::new(
        Codelet::new("add")
            .modes([AccessMode::RW, AccessMode::R])
            .cpu(|call| {
                let src: Vec<u32> = call.vector::<u32>(1)?.to_vec();
                for (d, s) in call.vector_mut::<u32>(0)?.iter_mut().zip(src) {
                    *d += s;
                }
                Ok(())
            }),
    );
    let p = mpi
        .task(&add)
        .buffer(&b, AccessMode::RW)
        .buffer(&a, AccessMode::R)
        .submit()?;
    assert!(p.do_execute && p.xrank == 0);
    mpi.wait_for_all()?;
    starpu_mpi::shutdown()?;
    assert!(starpu_mpi::global().is_err());
    assert_eq!(rt.unregister_take::<Vec<u32>>(&b)?, vec![2, 4, 6]);
    rt.shutdown();
    Ok(())
}
